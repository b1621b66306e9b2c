import './styles.css';
import { boot } from './app';

void boot();
