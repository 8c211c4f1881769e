"""Quick play's writes: asking, cancelling and sweeping the queue, one transaction each.
Uses the models and play's table services and push; nothing above it."""
