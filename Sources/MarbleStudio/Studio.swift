import MarbleKit

/// `marble studio` without its web server: what the page's requests do, as plain Swift.
package enum Studio {
    /// The port `marble studio` listens on by default.
    package static let defaultPort = 8140
}
