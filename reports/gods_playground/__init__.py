"""God's Playground reports: text, HTML, the map of the Commonwealth and the VP/thalers chart."""
