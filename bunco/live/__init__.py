"""What the screens show and who gets it: each screen's parts by what they are about
(``screens``), the frames one command makes and where they go (``broadcast``), every screen's
websocket (``consumers``) and the groups and who is watching each (``groups``), the watch over the
log for changes made elsewhere (``watch``), and the printed sheets and the season (``sheets``,
``season``). How a push leaves the process is ``bunco.runtime``'s."""
