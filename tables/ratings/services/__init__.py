"""The ratings' writes: rating a recorded match, and rebuilding every rating from the recorded matches."""
