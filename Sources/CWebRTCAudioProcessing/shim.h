/* webrtc-audio-processing is C++: this system-library target stands for the library (linked by
 * name) and its Debian package; the C++ shim CWebRTCProcessing is what Swift imports. */
