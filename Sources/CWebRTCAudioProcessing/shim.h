/* webrtc-audio-processing is C++: this system-library target only carries its pkg-config flags
 * (include path, defines, library) to the C++ shim CWebRTCProcessing, which is what Swift imports. */
