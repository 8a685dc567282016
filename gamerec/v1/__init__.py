"""Generated from protos/ by scripts/gen_proto.py (make proto). Do not edit."""
