import ReactDOM from 'react-dom/client';
import app from './App';
// Backstage UI's styles: the new frontend system's page headers, tabs and navigation use them.
import '@backstage/ui/css/styles.css';

ReactDOM.createRoot(document.getElementById('root')!).render(app.createRoot());
