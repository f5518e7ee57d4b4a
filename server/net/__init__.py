"""The network layer: bytes in and bytes out, every decision the core's.

:class:`~noddy.server.net.network.NoddyServer` owns the event loop's side: listening
(:mod:`.accepting`), one object per connection (:mod:`.link`), encoding and writing within
each connection's caps (:mod:`.sending`), computer players thinking in worker threads
(:mod:`.computer_players`), and storage gating: nothing is sent before it is on disk.
"""
