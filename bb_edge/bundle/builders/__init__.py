"""One builder per target kind: each turns a node of a compiled deployment into a bundle."""
