"""Generated from proto/plis/v1/plis.proto by service/gen_proto.py; do not edit."""
