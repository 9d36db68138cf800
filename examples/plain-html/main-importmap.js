// The same page with the bare specifier 'privsample', mapped by the import map in importmap.html (allowed by the
// hash of its exact text in the page's policy).
import { init } from 'privsample';
import { show } from './show.js';

show(init);
