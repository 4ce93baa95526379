/// Granite: a Redux-like state architecture (after pexavc/Granite), rebuilt UI-free for Linux.
public enum GraniteModule {}
