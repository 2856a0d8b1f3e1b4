"""The plain-text tables every benchmark script prints (imported from the scripts' own folder)."""


def print_table(rows):
    """Print rows of strings as aligned columns, the first row a header underlined with dashes."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for i, row in enumerate(rows):
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
        if i == 0:
            print("  ".join("-" * width for width in widths))
    print()
