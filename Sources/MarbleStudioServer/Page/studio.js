// The studio page (written by the page work).
