// `segue gallery`: a static web page of every effect with looping previews.
import ArgumentParser
import FoundationEssentials
import Segue
import SegueTools

struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery", abstract: "Write a web page of every effect, with looping previews between the sample screens.",
        discussion: """
            The built-ins and the .glsl and .metal files of each FOLDER get a card: a looping preview (WebM), kind, \
            parameters with defaults, and source; a filter box narrows the grid. Open SITE/index.html in a browser.
            """)

    @Argument(help: ArgumentHelp("Folders of effect files to include.", valueName: "FOLDER"))
    var folders: [String] = []

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The site's folder: new, empty, or written by segue gallery before (then replaced whole).", valueName: "SITE"))
    var output: String

    @Option(parsing: .unconditional, help: "Pixels per point of the sample screens in the previews (390×844 points).")
    var scale: Double = 0.5

    @OptionGroup var deviceOptions: DeviceOptions

    func validate() throws {
        try validateScale(scale, in: Gallery.scales)
    }

    func run() throws {
        try Gallery.checkOutput(output, folders: folders)  // before the device opens: a refusal is immediate
        let gallery = try Gallery(
            folders: folders, output: output, context: try deviceOptions.context(), scale: scale,
            cancellation: InterruptHandler.cancellation)
        let total = EffectCatalog.builtIns.count + (try gallery.effectFiles()).count
        let progress = ProgressLine(total: total)
        var done = 0
        let entries = try gallery.run { _ in
            done += 1
            progress.update(done)
        }
        progress.finish()
        let missing = entries.filter { $0.preview == nil }
        print("\(output)/index.html: \(entries.count) effects, \(entries.count - missing.count) previews")
        for e in missing { print("  \(e.name): \(e.note ?? "no preview")") }
    }
}
