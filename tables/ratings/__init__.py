"""Ratings: each game's OpenSkill (Plackett-Luce) rating of members and bots, from recorded match results."""
