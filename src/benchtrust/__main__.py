"""``python -m benchtrust``: the same as the ``benchtrust`` command."""

from benchtrust.cli import main

if __name__ == "__main__":
    main()
