import AUHost
