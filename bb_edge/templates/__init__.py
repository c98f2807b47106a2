"""Bundle templates (package data): launchers, service units, ROS 2 and Android skeletons."""
