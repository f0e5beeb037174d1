@_exported import AUHostCore
@_exported import ProcessingGraph
