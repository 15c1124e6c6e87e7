// `--device`: the one declaration of the Vulkan device option, shared by every command that
// renders.
import ArgumentParser
import FoundationEssentials
import Segue

/// `--device I|NAME`, falling back to `SEGUE_DEVICE`, then the best device.
struct DeviceOptions: ParsableArguments {
    @Option(help: "Vulkan device: an index or a name substring (see 'segue devices'); default SEGUE_DEVICE or the best GPU.")
    var device: String?

    /// Checks the device `--device` (else `SEGUE_DEVICE`) names against the devices there are,
    /// before any work starts, even where the command ends up not using the GPU (a concat of
    /// hard cuts).
    func validate() throws {
        guard let selector = configuration.deviceSelector else { return }
        do {
            try GPUContext.checkDeviceSelector(selector)
        } catch {
            throw ValidationError((device == nil ? "SEGUE_DEVICE=\(selector): " : "") + error.message)
        }
    }

    /// The GPU configuration for `--device` (else `SEGUE_DEVICE`), caching shaders in the directory
    /// the environment names (`SEGUE_CACHE_DIR`, else the XDG cache; see `ShaderCache.defaultDirectory`).
    var configuration: GPUContext.Configuration {
        .init(environment: ProcessInfo.processInfo.environment, deviceSelector: device)
    }

    /// The GPU context of `configuration`.
    func context() throws -> GPUContext {
        try GPUContext(configuration: configuration)
    }
}
