from django.apps import AppConfig


class BuncoConfig(AppConfig):
    name = "bunco"
    verbose_name = "Bunco night"

    def ready(self) -> None:
        """The layers' parts in each other's work, put in once when Django starts (the server,
        the commands and the tests alike). Imports run one way (docs/architecture.md): what a
        write in the night layer sets off above it, and what the live layer and the laptop
        tell each other, is connected here and nowhere else."""
        from bunco.laptop import keeping, notes, roomcheck
        from bunco.live import broadcast, reports, watch
        from bunco.models import Night, ScoreEvent
        from bunco.night import hooks
        from bunco.night.services import runner
        from bunco.runtime import statements

        # After a command: its frames drawn and pushed, then the night's copy and snapshot.
        hooks.draw_with(broadcast.frames)
        hooks.after_write(broadcast.after_write)
        hooks.after_write(keeping.after_write)
        hooks.after_call(broadcast.call_changed)
        hooks.after_open(keeping.opened)
        hooks.after_open(roomcheck.night_opened)  # its phones' reconnects are the swap's
        hooks.keep_with(keeping.save_deleted)
        # The log's two writes compiled once, unless left stock (bunco/runtime/statements.py).
        compiled = statements.install(ScoreEvent, Night)
        if compiled is not None:
            runner.write_with(compiled.append, compiled.moved_on, compiled.locked)
        watch.install()  # the server's timer looks for what other processes wrote
        notes.connect(hosts=broadcast.to_hosts, group=broadcast.to_group)
        reports.connect(on_reached=roomcheck.note_scope, on_card=roomcheck.push_card,
                        on_net=roomcheck.net_note)
