import { start } from './app/start'
import './index.css'

const root = document.getElementById('root')
if (!root) throw new Error('missing #root element')
await start(root)
