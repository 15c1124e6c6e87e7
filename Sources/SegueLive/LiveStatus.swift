import SegueMath

// What a live window says about itself around its picture: the title (the caller's first part,
// then what the window shows or what went wrong), one line a reload or save for the caller's
// report (stderr in the CLI), and the errors not yet mended, on one card across the top. The
// preview, the mesh window and the navigator word these the same way through this one type.

/// The title, report lines and error card of a live window.
struct LiveStatus {
    /// What can fail while a window runs, each keeping its own message until it is mended.
    enum Source: CaseIterable {
        case reload, save
    }

    /// The window title's first part, the caller's ("segue preview").
    let title: String
    /// Receives one line for each reload, save and error.
    let report: (String) -> Void
    /// The card across the top (nil while nothing is wrong).
    private(set) var card: MessageCardOverlay?
    private var messages: [Source: String] = [:]

    init(title: String, report: @escaping (String) -> Void) {
        self.title = title
        self.report = report
    }

    /// The window title that names `subject`.
    func windowTitle(_ subject: String) -> String {
        Self.windowTitle(title, subject)
    }

    /// `title — subject`.
    static func windowTitle(_ title: String, _ subject: String) -> String {
        "\(title) — \(subject)"
    }

    /// Something from `source` worked: `line` is reported, `source`'s error leaves the card, and
    /// the window is titled after `subject` when one is given. The card is drawn again only when
    /// an error left it (a card is a GPU image).
    mutating func succeeded(_ source: Source, _ line: String, subject: String? = nil, on view: LiveView) throws {
        if let subject { view.window.title = windowTitle(subject) }
        report(line)
        if messages.removeValue(forKey: source) != nil { try redraw(on: view) }
    }

    /// `source` failed with `error`: it is reported and shown on the card, and the window is
    /// titled after `subject` when one is given.
    mutating func failed(_ source: Source, _ error: SegueError, subject: String? = nil, on view: LiveView) throws {
        if let subject { view.window.title = windowTitle(subject) }
        report("error: \(error.message)")
        guard messages[source] != error.message else { return }
        messages[source] = error.message
        try redraw(on: view)
    }

    /// Draws the card again at the window's size (after a resize), or removes it when nothing is wrong.
    mutating func redraw(on view: LiveView) throws {
        let lines = Source.allCases.compactMap { messages[$0].map { "error: " + $0 } }
        card = lines.isEmpty ? nil : try view.messageCard(lines.joined(separator: "\n"))
    }
}
