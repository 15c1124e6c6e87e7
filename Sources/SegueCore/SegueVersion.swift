// The release this build of Segue is: one constant for the command's --version, the C API's
// segue_version() and the plans of distributed renders (which refuse pieces of another release).

/// Segue's version.
public enum SegueVersion {
    /// "MAJOR.MINOR.PATCH".
    public static let current = "0.2.0"
}
