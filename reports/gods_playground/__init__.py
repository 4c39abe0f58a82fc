"""God's Playground reports: a plain text report (the full report and map are issue 12)."""
