import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// The suite shares 2 cores with a control plane and other packages' tests: findBy* and waitFor
// wait up to 5 s (the default 1 s made permission-gated buttons flaky under load).
configure({ asyncUtilTimeout: 5000 });
