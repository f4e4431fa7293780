"""What leaves the room after a session: PBN and USEBIO files of an event."""
