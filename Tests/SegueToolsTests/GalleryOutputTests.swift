// Where the gallery may write: a new folder, an empty one, or one it wrote before (its marker);
// never a user's folder, a file, or an input folder or one containing it, compared by real paths.
import Foundation
import Segue
import SegueTestSupport
import Testing

@testable import SegueTools

@Suite("Gallery output folder")
struct GalleryOutputTests {
    private func withDirectory(_ body: (String) throws -> Void) throws {
        let scratch = try TemporaryDirectory("gallery"), raw = scratch.path
        try body(FileIO.resolvedPath(raw))
    }

    @Test("a new, an empty or a marked folder is accepted (its real path returned); anything else is refused")
    func accepted() throws {
        try withDirectory { dir in
            let fm = FileManager.default
            #expect(try Gallery.checkOutput(dir + "/new/site", folders: []) == dir + "/new/site")
            try fm.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: false)
            try fm.createSymbolicLink(atPath: dir + "/to-empty", withDestinationPath: "empty")
            #expect(try Gallery.checkOutput(dir + "/to-empty", folders: []) == dir + "/empty")
            try fm.createDirectory(atPath: dir + "/site/previews", withIntermediateDirectories: true)
            try Data().write(to: URL(fileURLWithPath: dir + "/site/" + Gallery.markerName))
            #expect(try Gallery.checkOutput(dir + "/site", folders: []) == dir + "/site")

            try Data().write(to: URL(fileURLWithPath: dir + "/empty/.hidden"))
            #expect(throws: GalleryError.foreignOutput(path: dir + "/empty")) { try Gallery.checkOutput(dir + "/empty", folders: []) }
            try fm.createSymbolicLink(atPath: dir + "/dangling", withDestinationPath: "nowhere")
            #expect(throws: GalleryError.outputNotAFolder(path: dir + "/dangling")) {
                try Gallery.checkOutput(dir + "/dangling", folders: [])
            }
            // A marked site that holds an input folder is still refused.
            try fm.createDirectory(atPath: dir + "/site/fx", withIntermediateDirectories: true)
            #expect(throws: GalleryError.outputContainsInput(output: dir + "/site", input: dir + "/site/fx")) {
                try Gallery.checkOutput(dir + "/site", folders: [dir + "/site/fx"])
            }
            // An output inside an input folder is fine (the site holds no effect files).
            #expect(try Gallery.checkOutput(dir + "/site/fx/out", folders: [dir + "/site/fx"]) == dir + "/site/fx/out")
            // A sibling whose name starts like the input's is not its parent.
            #expect(try Gallery.checkOutput(dir + "/si", folders: [dir + "/site"]) == dir + "/si")
        }
    }

    @Test("an input effect file that links into the old site is refused (the new site deleted it); so are '', '.' and '..' endings")
    func linkedFilesAndNames() throws {
        try withDirectory { dir in
            let fm = FileManager.default
            try fm.createDirectory(atPath: dir + "/site", withIntermediateDirectories: true)
            try Data().write(to: URL(fileURLWithPath: dir + "/site/" + Gallery.markerName))
            try Data("vec4 transition(vec2 uv) { return getToColor(uv); }\n".utf8).write(to: URL(fileURLWithPath: dir + "/site/mine.glsl"))
            try fm.createDirectory(atPath: dir + "/fx", withIntermediateDirectories: true)
            try fm.createSymbolicLink(atPath: dir + "/fx/mine.glsl", withDestinationPath: "../site/mine.glsl")
            #expect(throws: GalleryError.outputHoldsInputFile(output: dir + "/site", input: dir + "/fx/mine.glsl")) {
                try Gallery.checkOutput(dir + "/site", folders: [dir + "/fx"])
            }
            #expect(
                GalleryError.outputHoldsInputFile(output: "site", input: "fx/mine.glsl").description
                    == "the output site holds the input effect fx/mine.glsl (through a symbolic link), which replacing the site would delete; "
                    + "choose another directory for the site")
            #expect(try Gallery.checkOutput(dir + "/other", folders: [dir + "/fx"]) == dir + "/other")
            #expect(throws: GalleryError.outputPath(.unwritable(path: "''", reason: "the path is empty"))) {
                try Gallery.checkOutput("", folders: [])
            }
            let dotDot = dir + "/missing/.."
            let reason = "a directory output replaces the directory whole, so it must be named, not given as '..'"
            #expect(throws: GalleryError.outputPath(.unwritable(path: dotDot, reason: reason))) {
                try Gallery.checkOutput(dotDot, folders: [])
            }
        }
    }
}
