"""``make demo``: a placeholder until the real demo is written."""


def main() -> None:
    """Print what the demo will show.

    Examples
    --------
    >>> main()
    benchtrust demo: nothing to show yet (the sota demo is being written)
    """
    print("benchtrust demo: nothing to show yet (the sota demo is being written)")


if __name__ == "__main__":
    main()
