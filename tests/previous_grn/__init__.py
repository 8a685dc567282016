"""The first release's GRN reader, kept as an oracle for the one that replaced it."""
