"""Development-only load tests and live benchmarks (``manage.py loadtest``, ``manage.py
livebench``): they drive a real server from client processes next to a bare websocket relay
(the floor). Not part of the package a host installs; the settings add this app in a
checkout only."""
