; javascript: to be written
