import FoundationEssentials
import SegueSystem

// The files a live window reloads when they change on disk, polled once a frame by modification
// date. A missing file (an editor that saves by renaming takes it away for a moment) is no change:
// the watch waits until it is back with a new date.

/// Files watched for changes by their modification dates.
struct FileWatch {
    /// The watched files.
    let paths: [String]
    private var dates: [Double?]

    /// Watches `paths`, as they are now.
    init(_ paths: [String]) {
        self.paths = paths
        dates = paths.map(Self.modificationDate)
    }

    /// Whether a watched file has a modification date other than the last one seen (since the
    /// last call, or since the watch began).
    mutating func changed() -> Bool {
        var changed = false
        for (i, path) in paths.enumerated() {
            guard let date = Self.modificationDate(path), date != dates[i] else { continue }
            dates[i] = date
            changed = true
        }
        return changed
    }

    /// The file's modification time; a symbolic link's target's, so editing the file it points
    /// at reloads too.
    private static func modificationDate(_ path: String) -> Double? {
        FileIO.sizeAndModificationTime(path)?.modified
    }
}
