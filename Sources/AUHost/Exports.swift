@_exported import AUHostCore
