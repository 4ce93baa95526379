// `import MarbleKit` brings the whole engine: the layers below are re-exported, so a program that
// embeds MarbleKit sees one module while the package itself keeps them apart (see Package.swift).
@_exported import MarbleCore
@_exported import MarbleMedia
@_exported import MarbleAnalysis
@_exported import MarbleRender
@_exported import MarblePipeline
