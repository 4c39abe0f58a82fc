"""Import every game's grammar so it registers itself (see :func:`turns.base.register_grammar`)."""
import turns.gods_playground  # noqa: F401
import turns.gods_playground_plan  # noqa: F401
import turns.wallenstein  # noqa: F401
import turns.havoc  # noqa: F401
