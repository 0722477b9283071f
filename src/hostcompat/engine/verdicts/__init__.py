"""Per-host verdicts: a server's needs joined with one host's facts, lane by lane, with findings and fixes."""
