// The umbrella module: one import gives the whole library. It only re-exports; every feature
// lives in its own module (see Docs/Architecture.md).
@_exported import SegueAnimation
@_exported import SegueConcat
@_exported import SegueCore
@_exported import SegueLive
@_exported import SegueMath
@_exported import SegueMedia
@_exported import SegueMetal
@_exported import SegueRender
@_exported import SegueShaders
@_exported import SegueSystem
@_exported import SegueVulkan
@_exported import SegueWindow
