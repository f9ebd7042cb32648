"""Staff: look up any parcel and any person."""
