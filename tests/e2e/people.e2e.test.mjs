// Runner for node --test tests/e2e/ (see people.e2e.mjs).
import './people.e2e.mjs';
