import { work } from './session-work.ts';

work(2);
