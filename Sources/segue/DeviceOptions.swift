// `--device`: the one declaration of the Vulkan device option, shared by every command that
// renders.
import ArgumentParser
import Segue

/// `--device I|NAME`, falling back to `SEGUE_DEVICE`, then the best device.
struct DeviceOptions: ParsableArguments {
    @Option(help: "Vulkan device: an index or a name substring (see 'segue devices'); default SEGUE_DEVICE or the best GPU.")
    var device: String?

    /// The GPU context for `--device`.
    func context() throws -> GPUContext {
        if let device { return try GPUContext(device: device) }
        return try GPUContext.shared()
    }
}
