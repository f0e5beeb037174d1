@_exported import AUHostCore
@_exported import ProcessingGraph
@_exported import MusicPlayerServices
