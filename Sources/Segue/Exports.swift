// The umbrella module: one import gives the whole library.
@_exported import SegueAnimation
@_exported import SegueCore
@_exported import SegueMath
@_exported import SegueMedia
@_exported import SegueShaders
@_exported import SegueVulkan
