import Testing
@testable import SegueCore
