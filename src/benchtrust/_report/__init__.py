"""What the subpackages share for output: figure setup and writing, and the HTML report."""
