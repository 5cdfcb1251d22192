; c: to be written
