; go: to be written
