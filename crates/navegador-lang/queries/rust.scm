; rust: to be written
