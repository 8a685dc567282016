"""``python -m scripts.docs_site.references [PAGE ...]``: print reference pages."""

from scripts.docs_site.references import main

if __name__ == "__main__":
    main()
