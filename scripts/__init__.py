"""The project's own tools: code generation, fixtures, and the documentation site's builder."""
