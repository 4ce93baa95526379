@_exported import MarbleCore
