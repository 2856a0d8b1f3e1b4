"""What the subpackages share for output: figure setup and writing (and, later, the HTML report)."""
