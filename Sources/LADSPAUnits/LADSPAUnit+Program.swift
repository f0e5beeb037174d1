import AUHostCore
import Foundation
import LADSPAHost
import Synchronization

/// kDSSIUnitProperty_Program (AUHostDSSI.h): a DSSI synth's bank and program by number, for
/// programs the catalog could not list (a sampler's exist only once its file is loaded).
extension LADSPAUnit {
    /// Thread: setup.
    func programPropertyInfo(_ scope: AudioUnitScope) throws -> (size: UInt32, writable: Bool) {
        guard plugin.isDSSI else {
            throw AudioError(kAudioUnitErr_InvalidProperty, "\(plugin.label) is a LADSPA plug-in: only DSSI plug-ins have programs.")
        }
        guard scope == kAudioUnitScope_Global else {
            throw AudioError(kAudioUnitErr_InvalidScope, "kDSSIUnitProperty_Program is a global-scope property.")
        }
        return (UInt32(MemoryLayout<DSSIUnitProgram>.size), true)
    }

    /// Thread: setup.
    func getProgram(_ data: UnsafeMutableRawPointer) throws {
        guard let bankProgram else { throw AudioError(kAudioUnitErr_PropertyNotInUse, "No program was selected by number yet.") }
        data.storeBytes(of: bankProgram, as: DSSIUnitProgram.self)
    }

    /// Remembers the numbers and asks the render thread to select them. Thread: setup.
    func setProgram(_ data: UnsafeRawPointer, _ size: UInt32) throws {
        guard size >= UInt32(MemoryLayout<DSSIUnitProgram>.size) else {
            throw AudioError(kAudioUnitErr_InvalidPropertyValue, "kDSSIUnitProperty_Program takes a DSSIUnitProgram.")
        }
        let value = data.loadUnaligned(as: DSSIUnitProgram.self)
        guard SelectedBankProgram.fits(value) else {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue, "Bank \(value.bank) program \(value.program): AUHost takes each up to 65535.")
        }
        bankProgram = value
        bankProgramRequests += 1
        renderState?.pointee.requestedBankProgram.pointee.store(
            SelectedBankProgram.encode(value, request: bankProgramRequests), ordering: .releasing)
    }
}

/// A bank-and-program request in one atomic word, so the render thread never sees half of one:
/// the request count above bit 32 (a new set differs even with the same numbers), the bank in
/// bits 16–31, the program in bits 0–15; -1 is no request.
enum SelectedBankProgram {
    /// Thread: any.
    static func fits(_ value: DSSIUnitProgram) -> Bool { value.bank <= 0xFFFF && value.program <= 0xFFFF }

    /// Thread: any.
    static func encode(_ value: DSSIUnitProgram?, request: Int) -> Int {
        guard let value else { return -1 }
        return (request & 0x7FFF_FFFF) << 32 | Int(value.bank) << 16 | Int(value.program)
    }

    /// Thread: any (render).
    @_noAllocation @_noLocks
    static func bank(_ word: Int) -> UInt { UInt((word >> 16) & 0xFFFF) }

    /// Thread: any (render).
    @_noAllocation @_noLocks
    static func program(_ word: Int) -> UInt { UInt(word & 0xFFFF) }
}
